export * from './state.js';
export * from './change.js';
