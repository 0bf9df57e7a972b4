'use strict';

exports.lookup = function lookup(ext) {
  return types[ext];
};

var types = { html: 'text/html' };
