export * from './kinds.js';
export * from './desired.js';
export * from './change.js';
