module Shop
  module Util
    # Money formatting.
    module Money
      CURRENCY = "EUR"

      def self.format(cents)
        "#{round(cents / 100.0)} #{CURRENCY}"
      end

      def self.round(value)
        value.round(2)
      end
    end
  end
end
