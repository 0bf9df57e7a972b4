import { Cart, Product } from "../models";

describe("Cart", () => {
  it("adds products", () => {
    const cart = new Cart();
    cart.add(Product.create("a", 100)).add(Product.create("b", 250));
    expect(cart.total()).toBe(350);
  });
});

function fixture(): Cart {
  return new Cart().addProduct("x", 1);
}

test("fixture", () => {
  expect(fixture().size).toBe(1);
});
