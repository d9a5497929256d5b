// The console's page, rendered on the server. It holds no tenant data: the browser script fills
// every view through the API with the key the visitor typed, which stays in sessionStorage.
import type { FC } from 'hono/jsx';
import type { Flow } from './client/flow.js';

const ADVANCES = [
  { label: '+1 minute', seconds: 60 },
  { label: '+1 hour', seconds: 3600 },
  { label: '+1 day', seconds: 86400 },
];

const View: FC<{ id: string; title: string; wide?: boolean; children?: unknown }> = ({ id, title, wide, children }) => (
  <section id={id} class={`needs-key${wide ? ' wide' : ''}`}>
    <h2>{title}</h2>
    {children}
    <div data-view={id}></div>
  </section>
);

export const ConsolePage: FC<{ flows: Pick<Flow, 'id' | 'title' | 'outline'>[] }> = ({ flows }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="referrer" content="no-referrer" />
      <title>payments-sandbox console</title>
      <link rel="icon" href="/console/favicon.svg" type="image/svg+xml" />
      <link rel="stylesheet" href="/console/console.css" />
      <script src="/console/console.js" defer></script>
    </head>
    <body data-state="locked">
      <header class="top">
        <h1>payments-sandbox console</h1>
        <div class="gate">
          <label for="key">Test key </label>
          <input id="key" type="password" autocomplete="off" spellcheck={false} placeholder="sk_test_…" size={44} />{' '}
          <button type="button" class="primary" data-action="sign-in">Open</button>{' '}
          <span data-field="key-error" role="alert"></span>
          <div class="muted">The key stays in this browser tab (sessionStorage) and is sent only in the Authorization header.</div>
        </div>
        <div class="signed-in">
          Key <code data-field="key"></code> <button type="button" data-action="forget-key">Forget key</button>{' '}
          <span class="muted" data-field="poll"></span>
        </div>
        <nav class="needs-key">
          <a href="#flows">Flows</a>
          <a href="#resources">Resources</a>
          <a href="#journal">Journal</a>
          <a href="#events">Events</a>
          <a href="#deliveries">Webhooks</a>
          <a href="/docs">API docs</a>
        </nav>
      </header>
      <main>
        <section id="flows" class="needs-key wide flows">
          <h2>Guided flows</h2>
          <p class="muted">Each button makes the real API calls with your key, one step at a time.</p>
          {flows.map((f) => (
            <button type="button" data-action="flow" data-flow={f.id}>
              {f.title}
              <small>{f.outline}</small>
            </button>
          ))}
          <h3 data-field="flow-title"></h3>
          <p data-field="flow-outcome"></p>
          <div data-view="flow-log"></div>
        </section>
        <View id="clock" title="Clock">
          <p>
            {ADVANCES.map((a) => (
              <>
                <button type="button" data-action="advance" data-seconds={String(a.seconds)}>
                  {a.label}
                </button>{' '}
              </>
            ))}
          </p>
        </View>
        <View id="scenario" title="Scenario" />
        <View id="balances" title="Balances" />
        <View id="deliveries" title="Webhook deliveries" />
        <View id="resources" title="Resources and their timelines" wide />
        <View id="journal" title="Request journal" wide />
        <View id="events" title="Event log" wide />
      </main>
    </body>
  </html>
);
