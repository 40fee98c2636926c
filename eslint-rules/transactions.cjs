'use strict';
// Local, type-aware lint rules that keep a write on its own transaction (docs/architecture.md,
// "Unit of work and `Tx`"). The types do most of it: every repository method that runs inside writes
// requires the write's `Tx` (src/database/tx.ts), which the outer connection is not. What types
// cannot stop is a closure inside a write calling a read that uses the outer connection — on
// SQLite it would wait for the open transaction forever, on MySQL it would read outside it.
// That is what `no-outer-connection-in-write` looks for; `no-tx-assertion` keeps a Tx from
// being made out of anything else; `no-raw-transaction` keeps every transaction outside
// src/database a unit of work.

/** Defaults match src/database: the brand property of Tx, and the class whose run() opens writes. */
const DEFAULTS = { txBrand: '__txBrand', unitOfWork: 'UnitOfWork' };

const optionsSchema = [
  {
    type: 'object',
    properties: { txBrand: { type: 'string' }, unitOfWork: { type: 'string' } },
    additionalProperties: false,
  },
];

const optionsOf = (context) => ({ ...DEFAULTS, ...(context.options[0] ?? {}) });

/** A Tx for sure (a union such as Reader = Tx | Outer is not). */
const isTx = (type, brand) => !type.isUnion() && type.getProperty(brand) !== undefined;

/** Tx, or a union with Tx in it (Reader). */
const mentionsTx = (type, brand) => (type.isUnion() ? type.types.some((t) => mentionsTx(t, brand)) : isTx(type, brand));

const isThenable = (type) => (type.isUnion() ? type.types : [type]).some((t) => t.getProperty('then') !== undefined);

const FUNCTIONS = new Set(['ArrowFunctionExpression', 'FunctionExpression', 'FunctionDeclaration']);
const WRAPPERS = new Set(['ChainExpression', 'TSNonNullExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'AwaitExpression']);

function unwrap(node) {
  let n = node;
  while (WRAPPERS.has(n.type)) n = n.expression ?? n.argument;
  return n;
}

const within = (node, outer) => node.range[0] >= outer.range[0] && node.range[1] <= outer.range[1];

function parserServicesOf(context) {
  const services = context.sourceCode.parserServices;
  if (!services?.program) throw new Error('tx rules need type information (parserOptions.projectService)');
  return services;
}

/** The UnitOfWork methods that open a write. */
const RUNS = new Set(['run', 'runUnlogged']);

/** Is this `<UnitOfWork>.run(…)` (or runUnlogged)? */
function isUnitOfWorkRun(call, services, unitOfWork) {
  const callee = unwrap(call.callee);
  if (callee.type !== 'MemberExpression' || callee.computed || !RUNS.has(callee.property.name)) return false;
  return services.getTypeAtLocation(callee.object).getSymbol()?.getName() === unitOfWork;
}

/** @type {import('eslint').Rule.RuleModule} */
const noOuterConnectionInWrite = {
  meta: {
    type: 'problem',
    docs: { description: 'Inside a write (a unit of work, or a function given its Tx), every query goes through the transaction handle.' },
    schema: optionsSchema,
    messages: {
      outer:
        '`{{callee}}` is not given the transaction: inside a write every query must go through its Tx (on SQLite a query on the outer connection waits for the open transaction forever; on MySQL it reads outside it). Pass `tx`, or run it before the unit of work.',
      nested: 'A unit of work inside a write opens a second transaction; pass this write’s Tx on instead.',
    },
  },
  create(context) {
    const { txBrand, unitOfWork } = optionsOf(context);
    const services = parserServicesOf(context);
    const sourceCode = context.sourceCode;
    const typeOf = (node) => services.getTypeAtLocation(node);
    /** Functions being walked: whether each runs inside a write, and the outermost one that does. */
    const stack = [];

    const variableOf = (id) => {
      for (let scope = sourceCode.getScope(id); scope; scope = scope.upper) {
        const found = scope.set.get(id.name);
        if (found) return found;
      }
      return null;
    };

    /** A function the write's code defines itself (its body is checked where it is written), or a callback it was handed. */
    const isLocalFunction = (node, root) => {
      const n = unwrap(node);
      if (FUNCTIONS.has(n.type)) return true;
      if (n.type !== 'Identifier') return false;
      const def = variableOf(n)?.defs[0];
      if (!def) return false;
      if (def.type === 'Parameter') return typeOf(n).getCallSignatures().length > 0;
      if (def.type === 'FunctionName') return within(def.node, root);
      return def.type === 'Variable' && def.node.init != null && FUNCTIONS.has(def.node.init.type) && within(def.node, root);
    };

    /** Does the expression reach the database through the Tx (itself, a call given it, or a local made from it)? */
    const isBound = (node, root, seen = new Set()) => {
      const n = unwrap(node);
      if (isTx(typeOf(n), txBrand)) return true;
      switch (n.type) {
        case 'MemberExpression':
          return isBound(n.object, root, seen);
        case 'CallExpression':
          return isBound(n.callee, root, seen) || n.arguments.some((a) => isBound(a, root, seen));
        case 'Identifier': {
          const def = variableOf(n)?.defs[0];
          if (!def || def.type !== 'Variable' || !def.node.init || seen.has(def.node) || !within(def.node, root)) return false;
          seen.add(def.node);
          return isBound(def.node.init, root, seen);
        }
        default:
          return false;
      }
    };

    const rootIdentifier = (callee) => {
      let n = unwrap(callee);
      while (n.type === 'MemberExpression' || n.type === 'CallExpression') n = unwrap(n.type === 'MemberExpression' ? n.object : n.callee);
      return n.type === 'Identifier' ? n : null;
    };

    const isWriteFunction = (fn) => {
      const parent = fn.parent;
      if (parent?.type === 'CallExpression' && parent.arguments.includes(fn) && isUnitOfWorkRun(parent, services, unitOfWork)) return true;
      return fn.params.some((p) => p.type === 'Identifier' && isTx(typeOf(p), txBrand));
    };

    const enter = (fn) => {
      const outer = stack[stack.length - 1];
      if (outer?.root) stack.push({ root: outer.root });
      else stack.push({ root: isWriteFunction(fn) ? fn : null });
    };
    const leave = () => stack.pop();

    return {
      ArrowFunctionExpression: enter,
      'ArrowFunctionExpression:exit': leave,
      FunctionExpression: enter,
      'FunctionExpression:exit': leave,
      FunctionDeclaration: enter,
      'FunctionDeclaration:exit': leave,
      CallExpression(call) {
        const root = stack[stack.length - 1]?.root;
        if (!root) return;
        if (isUnitOfWorkRun(call, services, unitOfWork)) {
          context.report({ node: call, messageId: 'nested' });
          return;
        }
        if (!isThenable(typeOf(call))) return; // synchronous: no query
        if (isBound(call, root)) return;
        if (call.arguments.some((a) => isLocalFunction(a, root))) return; // e.g. writeUnderFreeSlug(…, write): the callback is checked where written
        const callee = unwrap(call.callee);
        if (callee.type === 'Identifier' && isLocalFunction(callee, root)) return;
        if (rootIdentifier(callee)?.name === 'Promise') return; // Promise.all([...]): its parts are calls checked on their own
        const text = sourceCode.getText(callee);
        context.report({ node: call, messageId: 'outer', data: { callee: text.length > 60 ? `${text.slice(0, 57)}...` : text } });
      },
    };
  },
};

/** @type {import('eslint').Rule.RuleModule} */
const noTxAssertion = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Only src/database makes a Tx (UnitOfWork.run, bulkTransaction); elsewhere a type assertion to it would hand a write the outer connection.',
    },
    schema: optionsSchema,
    messages: {
      assertion: 'Do not assert a value to be a transaction handle: take the Tx that UnitOfWork.run (or bulkTransaction) hands you.',
    },
  },
  create(context) {
    const { txBrand } = optionsOf(context);
    const services = parserServicesOf(context);
    const check = (node) => {
      if (mentionsTx(services.getTypeAtLocation(node.typeAnnotation), txBrand)) context.report({ node, messageId: 'assertion' });
    };
    return { TSAsExpression: check, TSTypeAssertion: check };
  },
};

/** The TypeORM handles that open a transaction, and the method each opens it with. */
const RAW_OPENERS = { DataSource: 'transaction', EntityManager: 'transaction', QueryRunner: 'startTransaction' };

/** The class names a type is made of (a Tx is an intersection with EntityManager). */
function classNamesOf(type) {
  const parts = type.isUnion() || type.isIntersection() ? type.types : [type];
  return parts.flatMap((t) => (t.isUnion() || t.isIntersection() ? classNamesOf(t) : [t.getSymbol()?.getName()])).filter(Boolean);
}

/** @type {import('eslint').Rule.RuleModule} */
const noRawTransaction = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Outside src/database every transaction is a UnitOfWork.run: it brings the write isolation, the cluster read wait, the bounded retry on conflicts and the change rows.',
    },
    schema: [],
    messages: {
      raw: '`{{callee}}` opens a transaction of its own: write through UnitOfWork.run (src/database/unit-of-work.ts), which brings the isolation, the retry on conflicts and the change rows.',
    },
  },
  create(context) {
    const services = parserServicesOf(context);
    return {
      CallExpression(call) {
        const callee = unwrap(call.callee);
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        const method = callee.property.name;
        if (!Object.values(RAW_OPENERS).includes(method)) return;
        const names = classNamesOf(services.getTypeAtLocation(callee.object));
        if (!names.some((name) => RAW_OPENERS[name] === method)) return;
        const text = context.sourceCode.getText(callee);
        context.report({ node: call, messageId: 'raw', data: { callee: text.length > 60 ? `${text.slice(0, 57)}...` : text } });
      },
    };
  },
};

module.exports = {
  meta: { name: 'calendar-transactions' },
  rules: {
    'no-outer-connection-in-write': noOuterConnectionInWrite,
    'no-tx-assertion': noTxAssertion,
    'no-raw-transaction': noRawTransaction,
  },
};
