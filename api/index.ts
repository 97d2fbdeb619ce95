export * from './enums.js';
export * from './params.js';
export * from './envelope.js';
export * from './data.js';
export * from './operations.js';
export * from './validate.js';
