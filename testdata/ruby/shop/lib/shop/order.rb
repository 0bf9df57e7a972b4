require "shop/base_model"
require "shop/util/money"

module Shop
  class Order < BaseModel
    extend Countable
    MAX_LINES = 50

    attr_accessor :lines, :paid

    def initialize(id, lines = [])
      super(id)
      @lines = lines
      @paid = false
    end

    def self.from_cart(cart)
      order = new(cart.owner)
      cart.items.each { |item| order.add(item) }
      order
    end

    def add(item)
      lines << item
      self
    end

    def total
      lines.sum { |l| l[:price] }
    end

    def due
      Util::Money.format(total)
    end

    def mark_paid!
      self.paid = true
      save
    end

    def validate!
      super
      raise Error, "too many lines" if lines.size > MAX_LINES
    end

    private

    def secret; end

    protected def shared; end

    public

    def visible; end
  end
end
