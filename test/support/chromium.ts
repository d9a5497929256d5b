// Debian's Chromium, headless, in a fresh profile, for the browser tests under test/e2e.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export interface Browser {
  context: BrowserContext;
  dir: string;
  close(): Promise<void>;
}

export async function launchChromium(viewport = { width: 1280, height: 1600 }): Promise<Browser> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chromium-e2e-'));
  // A fresh profile each run (playwright passes it to Chromium as --user-data-dir).
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    dir,
    // The folder stays: tests keep screenshots in it.
    close: () => context.close(),
  };
}
