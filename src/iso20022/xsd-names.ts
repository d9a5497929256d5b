// The XSD published for each FX message root, served as /xsd/{name}.xsd from the xsd/ folder.
export const XSD_NAMES = {
  FXTradInstr: 'FXTradInstr.xsd',
  FXTradInstrRspn: 'FXTradInstrRspn.xsd',
  FXTradAccptReq: 'FXTradAccptReq.xsd',
  FXTradStsAndDtlsNtfctn: 'FXTradStsAndDtlsNtfctn.xsd',
  FXTradCxlReq: 'FXTradCxlReq.xsd',
  FXTradCxlRspn: 'FXTradCxlRspn.xsd',
  FXTradConfReq: 'FXTradConfReq.xsd',
  FXTradConfStsAdvc: 'FXTradConfStsAdvc.xsd',
  FndPrcgPsptRpt: 'FndPrcgPsptRpt.xsd',
  FxTradStsAndDtls: 'FxTradStsAndDtls.xsd',
  MsgRjct: 'MsgRjct.xsd',
} as const;

export type XsdName = keyof typeof XSD_NAMES;

export const isXsdName = (name: string): name is XsdName => Object.hasOwn(XSD_NAMES, name);
