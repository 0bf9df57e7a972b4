/** Anything with a price. */
export interface Priced {
  price(): number;
}

/** Something that can be shown to a customer. */
export interface Describable extends Priced {
  describe(): string;
}

export enum Category {
  Food = "food",
  Toy = "toy",
}

export type ProductId = string;

/**
 * The base of everything sold.
 */
export abstract class Item implements Describable {
  static count = 0;

  constructor(public readonly id: ProductId, protected cents: number) {
    Item.count++;
  }

  abstract price(): number;

  describe(): string {
    return `${this.id}: ${this.price()}`;
  }

  get label(): string {
    return this.describe().toUpperCase();
  }
}

export class Product extends Item {
  #discount = 0;

  constructor(id: ProductId, cents: number, public category: Category = Category.Food) {
    super(id, cents);
  }

  /** Makes a product from its parts. */
  static create(id: string, cents: number): Product {
    return new Product(id, cents);
  }

  price(): number {
    return this.cents - this.#discount;
  }

  override describe(): string {
    return super.describe() + " (" + this.category + ")";
  }
}
