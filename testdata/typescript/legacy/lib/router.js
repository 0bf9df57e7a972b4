'use strict';

module.exports = Router;

/**
 * A router: a stack of layers.
 */
function Router(options) {
  if (!(this instanceof Router)) {
    return new Router(options);
  }
  this.stack = [];
  function dispatch() {}
  dispatch();
}

Router.prototype.use = function use(fn) {
  this.stack.push(fn);
  return this;
};

Router.prototype.handle = function handle(req, res, done) {
  var self = this;
  var idx = 0;
  next();
  function next(err) {
    var layer = self.stack[idx++];
    if (!layer) return done(err);
    self.match(layer, req);
  }
};

Router.prototype.match = (layer, req) => layer.match(req);

Router.create = function create(options) {
  return new Router(options);
};

Router.prototype.route = function route(path) {
  var r = Router.create();
  r.use(path);
  this.dispatch();
  use(path);
  return new Router().handle(path);
};

function use() {}
