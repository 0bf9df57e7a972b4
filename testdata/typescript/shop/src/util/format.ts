/** Formats cents as a price. */
export default function formatPrice(cents: number): string {
  return Money.round(cents / 100).toFixed(2);
}

export const currency = (cents: number): string => "€" + formatPrice(cents);

export namespace Money {
  export function round(n: number): number {
    return Math.round(n * 100) / 100;
  }

  function hidden(): void {}

  export const zero = round(0);
}
