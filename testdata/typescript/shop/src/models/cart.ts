import { Item, Product } from "./product";

export interface PricingRule {
  apply(total: number): number;
}

export class NoDiscount implements PricingRule {
  apply(total: number): number {
    return total;
  }
}

export class Cart {
  private items: Item[] = [];
  private rule: PricingRule;

  constructor(rule?: PricingRule) {
    this.rule = rule ?? new NoDiscount();
  }

  add(item: Item): this {
    this.items.push(item);
    return this;
  }

  addProduct(id: string, cents: number): Cart {
    return this.add(Product.create(id, cents));
  }

  total(): number {
    let sum = 0;
    for (const item of this.items) {
      sum += item.price();
    }
    return this.rule.apply(sum);
  }

  get size(): number {
    return this.items.length;
  }
}
