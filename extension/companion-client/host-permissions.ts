/**
 * Where the companion service may listen, as host-permission patterns (any port: the user picks
 * it). The manifest asks for these, and the options page asks the browser for them again when
 * pairing (Firefox lets the user withhold host permissions). The service's wire types are in
 * `shared/service-api/types.ts`.
 */
export const COMPANION_ORIGINS = ['http://127.0.0.1/*', 'http://localhost/*'];
