/// <reference types="vite/client" />
// `?url` and `?worker` imports in extension code are resolved by Vite (vite.config.ts).
