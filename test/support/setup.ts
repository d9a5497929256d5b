// Runs before every test file (vitest setupFiles).
import { afterEach } from 'vitest';
import './fast-check.js';
import { runCleanups } from './cleanup.js';

afterEach(runCleanups);
