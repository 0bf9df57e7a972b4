exports.sum = function (xs) {
  return xs.reduce((a, b) => a + b, 0);
};

exports.mean = (xs) => exports.sum(xs) / xs.length;
