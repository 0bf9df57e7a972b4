'use strict';

module.exports = View;

function View(name) {
  this.name = name;
}

View.prototype = {
  lookup: function lookup(name) {
    return this.resolve(name);
  },
  resolve(name) {
    return name;
  }
};
