/** Progress lines for the person running the bench (stderr; stdout stays for results). */
export function progress(message: string): void {
  const time = new Date().toISOString().slice(11, 19);
  process.stderr.write(`[bench ${time}] ${message}\n`);
}
