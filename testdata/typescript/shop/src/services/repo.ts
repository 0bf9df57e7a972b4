import type { Cart } from "../models";

export interface Repository {
  save(cart: Cart): Promise<void>;
  load(id: string): Promise<Cart | undefined>;
}

export class MemoryRepository implements Repository {
  private carts = new Map<string, Cart>();

  async save(cart: Cart): Promise<void> {
    this.carts.set(String(this.carts.size), cart);
  }

  async load(id: string): Promise<Cart | undefined> {
    return this.carts.get(id);
  }
}
