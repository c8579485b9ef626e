//! nginx in front of test shards, running the shipped `deploy/nginx/clack.conf` with the test's
//! addresses. nginx must be installed (`apt-get install nginx-light`): without it a test that
//! needs it fails, it does not skip.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The shard addresses and the log path in the shipped config, replaced by the test's: the
/// shards named a, b and c, in that order.
const SHIPPED_SHARDS: [&str; 3] = ["127.0.0.1:50061", "127.0.0.1:50062", "127.0.0.1:50063"];
const SHIPPED_LISTEN: &str = "127.0.0.1:8080";
const SHIPPED_LOG: &str = "/var/log/nginx/clack.access.log";

/// nginx, stopped with SIGTERM when the test ends, so that its master stops its workers too
/// (SIGKILL would leave them running).
pub struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = Command::new("kill").args(["-TERM", &self.0.id().to_string()]).status();
        let _ = self.0.wait();
    }
}

/// A free loopback address.
pub fn free_addr() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("addr").to_string()
}

/// The repository's root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Writes the shipped config with shards a, b and c at `shards` and the proxy on `listen`,
/// inside a minimal main config whose pid, logs and temporary files stay in `dir`.
pub fn write_config(dir: &Path, shards: &[String], listen: &str) {
    let shipped =
        std::fs::read_to_string(repo_root().join("deploy/nginx/clack.conf")).expect("deploy/nginx/clack.conf");
    let mut config = shipped.clone();
    for (from, addr) in SHIPPED_SHARDS.iter().zip(shards) {
        assert!(shipped.contains(from), "the shipped config names {from}");
        config = config.replace(from, addr);
    }
    assert!(shipped.contains(SHIPPED_LISTEN) && shipped.contains(SHIPPED_LOG), "listen address and log");
    config = config.replace(SHIPPED_LISTEN, listen).replace(SHIPPED_LOG, &dir.join("access.log").to_string_lossy());
    std::fs::write(dir.join("clack.conf"), config).expect("write clack.conf");
    let d = dir.display();
    let main = format!(
        "pid {d}/nginx.pid;\nerror_log {d}/error.log warn;\nworker_processes 1;\nevents {{ worker_connections 512; }}\n\
         http {{\n  client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n  fastcgi_temp_path {d}/fastcgi;\n  \
         uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  include {d}/clack.conf;\n}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), main).expect("write nginx.conf");
}

/// Starts nginx over the config [`write_config`] left in `dir`, and waits until it listens.
pub fn start(dir: &Path, listen: &str) -> Nginx {
    let installed = Command::new("nginx").arg("-v").stderr(Stdio::null()).status().is_ok_and(|s| s.success());
    assert!(installed, "nginx is not installed; this test needs it: apt-get install nginx (or nginx-light)");
    let child = Command::new("nginx")
        .arg("-p")
        .arg(dir)
        .args(["-c", "nginx.conf", "-g", "daemon off;"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nginx starts");
    let nginx = Nginx(child);
    for _ in 0..100 {
        if std::net::TcpStream::connect(listen).is_ok() {
            return nginx;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
    panic!("nginx did not start listening on {listen}: {log}");
}
