import { describe, expect, it } from 'vitest';
import { publicOrigin } from './public-url.js';

const config = { publicUrl: null, trustProxyHops: 0, host: '127.0.0.1', port: 8080 };

describe('publicOrigin', () => {
  it('is PUBLIC_URL when set, whatever the request says', () => {
    const set = { ...config, publicUrl: 'https://api.example.com' };
    expect(publicOrigin(set, { host: 'localhost:9999', 'x-forwarded-proto': 'http' })).toBe('https://api.example.com');
  });

  it('is the Host the request reached, over http', () => {
    expect(publicOrigin(config, { host: 'oads.internal:3000' })).toBe('http://oads.internal:3000');
    expect(publicOrigin(config, { host: 'LOCALHOST' })).toBe('http://localhost');
    expect(publicOrigin(config, { host: '[::1]:8080' })).toBe('http://[::1]:8080');
  });

  it('reads the forwarded host and protocol only behind a trusted proxy', () => {
    const headers = { host: '10.0.0.5:8080', 'x-forwarded-host': 'api.example.com, inner.proxy', 'x-forwarded-proto': 'https,http' };
    expect(publicOrigin(config, headers)).toBe('http://10.0.0.5:8080');
    expect(publicOrigin({ ...config, trustProxyHops: 1 }, headers)).toBe('https://api.example.com');
    expect(publicOrigin({ ...config, trustProxyHops: 1 }, { host: 'oads:8080', 'x-forwarded-proto': 'https' })).toBe('https://oads:8080');
  });

  it('falls back to the listening address for a missing or malformed Host', () => {
    expect(publicOrigin(config, {})).toBe('http://127.0.0.1:8080');
    for (const host of ['evil.com/path', 'a b', 'x"><script>', 'host:99999', 'user@host', '']) {
      expect(publicOrigin(config, { host }), host).toBe('http://127.0.0.1:8080');
    }
    expect(publicOrigin({ ...config, host: '::' }, {})).toBe('http://[::]:8080');
  });
});
