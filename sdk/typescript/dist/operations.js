import * as sdk from './generated/sdk.gen.js';
export const operationIds = Object.keys(sdk).filter((k) => typeof sdk[k] === 'function');
const requests = new Map();
/** The request an operation's generated function makes (recorded on first use, then kept). */
export function operationRequest(id) {
    const known = requests.get(id);
    if (known)
        return known;
    let recorded;
    const record = (method) => (options) => {
        const { url, client: _client, ...rest } = options;
        const template = String(url);
        const pathNames = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
        const headers = (rest.headers ?? {});
        recorded = { method, url: template, pathNames, hasBody: headers['Content-Type'] !== undefined, options: rest };
        return Promise.resolve({});
    };
    // A client that sends nothing: the generated function hands it the request it would make. The
    // hey-api SDK takes any object with the client's methods (`options.client`) for this purpose.
    const recorder = {
        get: record('GET'),
        post: record('POST'),
        put: record('PUT'),
        patch: record('PATCH'),
        delete: record('DELETE'),
        head: record('HEAD'),
        options: record('OPTIONS'),
    };
    const fn = sdk[id];
    void fn({ client: recorder });
    if (!recorded)
        throw new Error(`The generated function of ${id} made no request.`);
    requests.set(id, recorded);
    return recorded;
}
//# sourceMappingURL=operations.js.map