export const double = ((x: number) => x * 2) as (x: number) => number;
export const triple = (function (x: number) {
  return x * 3;
});
export const Point = class {
  norm() {
    return 1;
  }
};
export const Loose = class Loose {
  size() {
    return 0;
  }
} as any;

export function use(): number {
  const p = new Point();
  return double(1) + triple(2) + p.norm();
}
