# Stand-in for testcontainers.core.container where no Docker engine runs: entering a DockerContainer
# runs the image's command (STANDIN_COMMAND, a JSON list) on a free port standing for the mapped one,
# and waits as the recipe's wait strategy says. STANDIN_IMAGE is the image it stands for.
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request


class DockerContainer:
    def __init__(self, image):
        if image != os.environ["STANDIN_IMAGE"]:
            raise ValueError(f"asked for {image}, stands for {os.environ['STANDIN_IMAGE']}")
        self.image = image
        self.exposed = []
        self.wait = None
        self.port = None
        self.proc = None

    def with_exposed_ports(self, *ports):
        self.exposed = list(ports)
        return self

    def waiting_for(self, strategy):
        self.wait = strategy
        return self

    def __enter__(self):
        image_port = int(os.environ["STANDIN_IMAGE_PORT"])
        if image_port not in self.exposed:
            raise ValueError(f"the image listens on {image_port}; exposed: {self.exposed}")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = dict(os.environ, HOST="127.0.0.1", PORT=str(self.port))
        self.proc = subprocess.Popen(json.loads(os.environ["STANDIN_COMMAND"]), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{self.wait.path}") as r:
                    if r.status == self.wait.status:
                        return self
            except (urllib.error.URLError, ConnectionError):
                pass
            if time.time() > deadline:
                raise TimeoutError("the sandbox did not answer its health check")
            time.sleep(0.1)

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()
        return False

    def get_container_host_ip(self):
        return "127.0.0.1"

    def get_exposed_port(self, port):
        if port != self.wait.port or port not in self.exposed:
            raise ValueError(f"port {port} is not exposed")
        return self.port
