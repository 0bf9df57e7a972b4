require "shop/order"

RSpec.describe Shop::Order do
  let(:order) { Shop::Order.new(1) }

  it "adds lines" do
    order = Shop::Order.new(2)
    order.add({ price: 3 })
    expect(order.total).to eq 3
  end
end
