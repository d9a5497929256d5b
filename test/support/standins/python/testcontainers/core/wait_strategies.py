# Stand-in for testcontainers.core.wait_strategies: the HTTP wait the recipe asks for.
class HttpWaitStrategy:
    def __init__(self, port, path="/"):
        self.port = port
        self.path = path
        self.status = 200

    def for_status_code(self, status):
        self.status = status
        return self
