export * from './kinds.js';
export * from './desired.js';
export * from './live.js';
export * from './change.js';
