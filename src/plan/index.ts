export * from './types.js';
export * from './build.js';
export * from './safety.js';
export * from './render-text.js';
export * from './render-markdown.js';
export * from './render-json.js';
export * from './checksum.js';
export * from './redact.js';
