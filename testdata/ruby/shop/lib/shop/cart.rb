require "shop/order"

module Shop
  class Cart
    include Enumerable
    include Loggable

    attr_reader :owner, :items

    def initialize(owner)
      @owner = owner
      @items = []
    end

    def add(name, price)
      items << { name: name, price: price }
      log("added #{name}")
      self
    end

    def each(&block)
      items.each(&block)
    end

    def checkout(gateway)
      order = Order.from_cart(self)
      receipt = Receipt.new(order)
      if gateway.charge(order.total)
        order.mark_paid!
        receipt.print
      end
      order.due
      Order.count_of(items)
      helper
      order
    end

    def helper
      items.size
    end
    private :helper

    class << self
      def for(owner)
        new(owner)
      end

      private

      def hidden_factory; end
    end
  end

  class Receipt
    def initialize(order)
      @order = order
    end

    def print
      Util::Money.format(@order.total)
    end
  end
end
