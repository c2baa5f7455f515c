/**
 * The origin the served documents name for the service (issue 36 §6): the contract's `servers`
 * and request samples, the AsyncAPI document's server. PUBLIC_URL when it is set; otherwise the
 * origin the request reached: its Host header with http (the service itself serves plain HTTP),
 * or, behind proxies that TRUST_PROXY trusts, the first X-Forwarded-Host and X-Forwarded-Proto
 * (the outermost proxy's). A Host that is not a host[:port] gives the address the service
 * listens on, so a forged header cannot write anything but an origin into a document.
 */
import type { Config } from '../config.js';

const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)(:\d{1,5})?$/;

function firstOf(value: string | undefined): string | undefined {
  const first = value?.split(',')[0]?.trim();
  return first ? first : undefined;
}

export function publicOrigin(
  config: Pick<Config, 'publicUrl' | 'trustProxyHops' | 'host' | 'port'>,
  headers: Readonly<Record<string, string | undefined>>,
): string {
  if (config.publicUrl !== null) return config.publicUrl;
  const proxied = config.trustProxyHops > 0;
  const host = (proxied ? firstOf(headers['x-forwarded-host']) : undefined) ?? headers.host;
  const forwardedProto = proxied ? firstOf(headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const protocol = forwardedProto === 'https' ? 'https' : 'http';
  if (host !== undefined && HOST.test(host) && URL.canParse(`${protocol}://${host}`)) return new URL(`${protocol}://${host}`).origin;
  const listening = config.host.includes(':') ? `[${config.host}]` : config.host;
  return new URL(`http://${listening}:${config.port}`).origin;
}
