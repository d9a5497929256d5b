// Global setup: build dist/main.js once, so end-to-end tests run the server as `npm start` does.
import { execFileSync } from 'node:child_process';

export default function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
