import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadApiContract } from '../api-contract/openapi.js';
import { servedDocument } from './enrich.js';

describe("the docs' SDKs section", () => {
  const served = servedDocument(loadApiContract()) as { info: { version: string; description: string } };
  const description = served.info.description;

  it('sits between Getting started and Where the data comes from, naming the artefacts of the contract version', () => {
    const at = description.indexOf('## SDKs');
    expect(at).toBeGreaterThan(description.indexOf('## Getting started'));
    expect(at).toBeLessThan(description.indexOf('## Where the data comes from'));
    const version = served.info.version;
    expect(description).toContain('npm install ./sdk/typescript');
    expect(description).toContain(`npm install ./build/sdk/oads-sdk-${version}.tgz`);
    expect(description).toContain('pip install ./sdk/python');
    expect(description).toContain(`pip install ./build/sdk/oads_sdk-${version}-py3-none-any.whl`);
  });

  it('names the version both packages carry', () => {
    const pkg = JSON.parse(fs.readFileSync('sdk/typescript/package.json', 'utf8')) as { name: string; version: string };
    const pyproject = fs.readFileSync('sdk/python/pyproject.toml', 'utf8');
    expect(pkg.version).toBe(served.info.version);
    expect(/^version = "([^"]+)"$/m.exec(pyproject)?.[1]).toBe(served.info.version);
    expect(description).toContain(`now\n${served.info.version}`);
  });
});
