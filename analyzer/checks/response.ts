// Reading HttpResponse facts and the URLs inside them. URL parsing is pure (no I/O).
import type { HttpResponse, PageFacts } from "../../proto/index.ts";

/** The first value of a response header (names are stored lower case), or undefined. */
export function header(response: HttpResponse | undefined, name: string): string | undefined {
  return response?.headers.find((h) => h.name === name)?.value;
}

/** Every value of a response header, in order (a header sent twice, such as Set-Cookie, has several). */
export function headerValues(response: HttpResponse | undefined, name: string): string[] {
  return (response?.headers ?? []).filter((h) => h.name === name).map((h) => h.value);
}

/** The URL a page was served from (after redirects). */
export function pageUrl(page: PageFacts): string {
  return page.response?.finalUrl || page.response?.requestedUrl || "";
}

/** An absolute http(s) URL, or undefined when the text is not one. */
export function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a link's href is an http(s) URL. For Link.href, which the extractor always makes absolute
 * and normalised (URL.href: lower-case scheme, valid host): a prefix test, no parse per link.
 */
export function isHttpHref(href: string): boolean {
  return href.startsWith("https://") || href.startsWith("http://");
}

export function originOf(text: string): string | undefined {
  return httpUrl(text)?.origin;
}

/** Host name without port, lower case; accepts "host", "host:port" or a URL. */
export function hostnameOf(hostOrUrl: string): string {
  const url = httpUrl(hostOrUrl.includes("://") ? hostOrUrl : `http://${hostOrUrl}`);
  return url?.hostname ?? "";
}

/** Whether a host name is an IP address literal (v4, or v6 in brackets as URL keeps it). */
export function isIpLiteral(hostname: string): boolean {
  return /^\[.*\]$/.test(hostname) || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

export function isSuccess(response: HttpResponse | undefined): boolean {
  return response !== undefined && response.status >= 200 && response.status < 300;
}

/** The status of an exchange as a user would quote it: the HTTP status, or the transport error. */
export function statusOrError(response: HttpResponse): string | number {
  return response.status > 0 ? response.status : response.error || "no answer";
}
