require "shop/concerns/loggable"

module Shop
  class BaseModel
    include Loggable

    attr_reader :id

    def initialize(id)
      @id = id
    end

    def save
      log("saving #{id}")
      validate!
      true
    end

    def validate!
      raise Error, "no id" unless id
    end

    def to_s
      "#{self.class.name}(#{id})"
    end
  end
end
