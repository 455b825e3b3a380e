import { resolve } from 'node:path';

/** The repository root (bench/ lives directly under it). */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/** The gateway's production entry point (built by `npm run build`). */
export const GATEWAY_CLI = resolve(REPO_ROOT, 'dist', 'cli', 'main.js');
