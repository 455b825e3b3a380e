/**
 * The cookies a browser would keep across the authorization redirects: per origin and path,
 * dropped when the server expires them. Enough for oidc-provider's interaction cookies.
 */
export class CookieJar {
  private readonly cookies = new Map<string, { origin: string; path: string; pair: string }>();

  /** The Cookie header for a request to `url` (undefined when nothing applies). */
  headerFor(url: URL): string | undefined {
    const pairs = [...this.cookies.values()]
      .filter(({ origin, path }) => origin === url.origin && url.pathname.startsWith(path))
      .map(({ pair }) => pair);
    return pairs.length > 0 ? pairs.join('; ') : undefined;
  }

  /** Takes in the Set-Cookie headers of a response to `url`. */
  store(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      const attribute = (wanted: string) =>
        attributes
          .find((part) => part.toLowerCase().startsWith(`${wanted}=`))
          ?.slice(wanted.length + 1);
      const path = attribute('path') ?? '/';
      const key = `${url.origin} ${path} ${name}`;
      const maxAge = attribute('max-age');
      const expires = attribute('expires');
      const expired =
        (maxAge !== undefined && Number(maxAge) <= 0) ||
        (expires !== undefined && Date.parse(expires) <= Date.now());
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { origin: url.origin, path, pair });
    }
  }
}
