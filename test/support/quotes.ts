// The quote routes' paths, as the quote tests use them: the API document's marketplace operations,
// the live surface's quote operations, and the sandbox's pay-in simulation.
export const INTENT = '/api/v1/partners/marketplace/intent';
export const EXPRESS = '/api/v1/partners/marketplace/express/quote';
export const QUOTE = '/api/v1/partners/marketplace/quote';
export const QUOTES = '/api/v1/quotes';
export const PAYMENTS = '/api/v1/quotes/payments';
export const COMPLETE = '/api/v1/quotes/complete';
/** POST `${SIM_QUOTES}/{id}/pay-in` pays a quote in. */
export const SIM_QUOTES = '/_sandbox/simulate/quotes';
/** A valid EVM address the tests pay out to. */
export const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
