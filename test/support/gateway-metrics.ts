/** The value of one series in a gateway's /metrics scrape (labels as written, `name{a="b"}`), 0 when absent. */
export async function scrapeMetric(baseUrl: string, series: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  for (const line of text.split('\n')) {
    if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
  }
  return 0;
}
