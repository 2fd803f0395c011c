// Node's own dynamic `import()`. vitest loads this CommonJS file with Node's `require` and does not
// transform it, so a module imported through it is loaded by Node, as an installed package is, and
// not by vitest's module runner (whose export getters sit on every call from one module to another).
module.exports = (url) => import(url);
