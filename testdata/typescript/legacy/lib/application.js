'use strict';

var Router = require('./router');
var View = require('./view');

var app = exports = module.exports = {};

app.init = function init() {
  this.settings = {};
  this.defaultConfiguration();
};

app.defaultConfiguration = function defaultConfiguration() {
  this.set('x-powered-by', true);
  this.lazyrouter();
};

app.lazyrouter = function lazyrouter() {
  if (!this.router) {
    this.router = new Router();
  }
};

app.set = function set(setting, val) {
  this.settings[setting] = val;
  return this;
};

app.handle = function handle(req, res, callback) {
  var router = new Router();
  router.handle(req, res, callback);
};

app.render = function render(name) {
  var view = new View(name);
  return view.lookup(name);
};

Object.assign(app, {
  enable(setting) {
    return this.set(setting, true);
  },
  disable: function (setting) {
    return this.set(setting, false);
  }
});
