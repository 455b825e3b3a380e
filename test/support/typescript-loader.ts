import { join } from 'node:path';

/** The `-r` module that lets a spawned child run TypeScript: `node -r TYPESCRIPT_LOADER entry.ts`. */
export const TYPESCRIPT_LOADER = join(__dirname, 'register-typescript.js');
