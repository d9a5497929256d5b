// The published XSDs, read from the repository's xsd/ folder: found from src/domains/fx/ (tests)
// or dist/ (the built server, whose image copies xsd/ beside it), once, and cached.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { XSD_NAMES, isXsdName } from '../../iso20022/xsd-names.js';

let dir: string | undefined;
const cache = new Map<string, string>();

function xsdDir(): string {
  if (dir) return dir;
  for (const rel of ['../xsd/', '../../../xsd/']) {
    const candidate = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(`${candidate}${XSD_NAMES.MsgRjct}`)) return (dir = candidate);
  }
  throw new Error('The xsd/ directory was not found next to the server; reinstall the package.');
}

/** The text of xsd/<root>.xsd, or undefined when no message has that root. */
export function xsdText(file: string): string | undefined {
  const root = file.endsWith('.xsd') ? file.slice(0, -4) : undefined;
  if (!root || !isXsdName(root)) return undefined;
  let text = cache.get(root);
  if (text === undefined) {
    text = readFileSync(xsdDir() + XSD_NAMES[root], 'utf8');
    cache.set(root, text);
  }
  return text;
}
