// CommonJS helpers from before the rewrite.

function slugify(text) {
  return text.toLowerCase().replace(/\s+/g, "-");
}

function titleCase(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

module.exports = {
  slugify,
  toTitle: titleCase,
  shout(text) {
    return titleCase(text) + "!";
  },
};
