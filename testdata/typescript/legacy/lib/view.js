'use strict';

module.exports = View;

function View(name) {
  this.name = name;
  this.path = this.lookup(name);
  var resolve = () => this.resolve(name);
  resolve();
}

View.prototype = {
  lookup: function lookup(name) {
    return this.resolve(name);
  },
  resolve(name) {
    return name;
  }
};
