'use strict';

var http = require('node:http');
var mime = require('./mime');

/**
 * The prototype of responses.
 */
var res = Object.create(http.ServerResponse.prototype);

module.exports = res;

/**
 * Sets the status code.
 */
res.status = function status(code) {
  this.statusCode = code;
  return this;
};

/**
 * Sends a body.
 */
res.send = function send(body) {
  var self = this;
  this.set('Content-Type', mime.lookup('html'));
  self.end(body);
  return this;
};

res.json = function json(obj) {
  var body = JSON.stringify(obj);
  return this.send(body);
};

res.contentType = res.type = function contentType(type) {
  return this.set('Content-Type', type);
};

res.set = function (field, val) {
  this.setHeader(field, val);
  return this;
};

res.sendStatus = function sendStatus(code) {
  this.status(code);
  return res.send(String(code));
};

res.later = () => this.send('no');

function reply(res) {
  res.send('a parameter, not the module object');
}

function patch(obj) {
  obj.extra = function extra() {};
  res.inner = function inner() {};
}

reply(res);
patch(res);
