'use strict';

var proto = require('./application');
var res = require('./response');
var Router = require('./router');

exports = module.exports = createApplication;

function createApplication() {
  var app = function (req, res, next) {
    app.handle(req, res, next);
  };
  proto.init();
  return app;
}

exports.Router = Router;

function serve() {
  res.status(200);
  res.sendStatus(404);
  new Router().use(serve);
  Router.create().use(serve);
}

exports.serve = serve;
