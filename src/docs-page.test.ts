import { describe, expect, it } from 'vitest';
import { docsPolicy, inlineScriptHashes } from './docs-page.js';

describe('the docs page policy', () => {
  it("hashes each inline script as CSP's script-src does (MDN's published example)", () => {
    // MDN, Content-Security-Policy script-src, "Unsafe inline script": the hash of alert('Hello, world.');
    expect(inlineScriptHashes("<p>x</p><script>alert('Hello, world.');</script>")).toEqual([
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
    ]);
  });

  it('leaves out scripts loaded by src, and names a script repeated once', () => {
    const html = '<script src="/a.js"></script><script type="module">1</script><SCRIPT>1</SCRIPT>';
    expect(inlineScriptHashes(html)).toHaveLength(1);
  });

  it('allows no other origin and no eval', () => {
    const policy = docsPolicy('<script>1</script>');
    expect(policy).toMatch(/^default-src 'none'; script-src 'self' 'sha256-[^']+';/);
    expect(policy).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(docsPolicy('')).toContain("script-src 'self';");
  });
});
