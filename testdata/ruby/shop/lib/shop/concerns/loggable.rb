module Shop
  # Mixed into anything that logs.
  module Loggable
    def log(message)
      logger.info(message)
    end

    def logger
      @logger ||= Logger.new($stdout)
    end
  end

  module Countable
    def count_of(list)
      list.size
    end
  end
end
