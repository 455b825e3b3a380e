import { extname } from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.py': 'text/x-python',
  '.sh': 'text/x-shellscript',
  '.js': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

/** MIME type of a skill file by extension; unknown files are opaque bytes. */
export function mimeTypeOf(path: string): string {
  return BY_EXTENSION[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export const DIRECTORY_MIME_TYPE = 'inode/directory';
