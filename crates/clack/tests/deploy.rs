//! The deployment files agree with the binary. No container engine runs here, so each
//! container's settings (the Dockerfile's environment and entrypoint, then a manifest's or the
//! compose file's arguments and environment) are given to the real `clack serve --print-config`:
//! every flag and `CLACK_*` variable must be known to it and take effect, and every port and
//! probe must be the port of the address it resolves. The sample configuration must list every
//! key with its default.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlLoader};

fn deploy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// How one container starts `clack serve`: its arguments after `serve` and its environment.
#[derive(Clone, Debug, Default)]
struct Launch {
    args: Vec<String>,
    env: BTreeMap<String, String>,
}

/// `clack serve ARGS --print-config` with only `env` in the environment, parsed.
fn print_config(launch: &Launch, what: &str) -> toml::Table {
    let output = Command::new(env!("CARGO_BIN_EXE_clack"))
        .arg("serve")
        .args(&launch.args)
        .arg("--print-config")
        .env_clear()
        .envs(&launch.env)
        .output()
        .expect("clack runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{what}: clack serve {:?} with {:?} refused: {stderr}", launch.args, launch.env);
    toml::from_str(&String::from_utf8_lossy(&output.stdout)).expect("--print-config prints TOML")
}

fn port_of(settings: &toml::Table, key: &str, what: &str) -> u16 {
    let addr = settings.get(key).and_then(toml::Value::as_str).unwrap_or_else(|| panic!("{what}: no {key}"));
    let addr: std::net::SocketAddr = addr.parse().unwrap_or_else(|_| panic!("{what}: {key} = {addr} is no address"));
    addr.port()
}

/// The printed value as the text a flag or variable would give.
fn same_value(printed: &toml::Value, given: &str) -> bool {
    match printed {
        toml::Value::String(s) => s == given,
        toml::Value::Float(f) => given.parse::<f64>().is_ok_and(|g| g == *f),
        toml::Value::Integer(i) => given.parse::<i64>().is_ok_and(|g| g == *i),
        toml::Value::Boolean(b) => {
            matches!(
                (b, given.to_ascii_lowercase().as_str()),
                (true, "true" | "1" | "yes" | "on") | (false, "false" | "0" | "no" | "off")
            )
        }
        other => other.to_string() == given,
    }
}

/// Checks that every `CLACK_*` variable is a setting the server knows and that it took effect
/// (unless a flag overrides it); returns the resolved settings.
fn check_launch(launch: &Launch, what: &str) -> toml::Table {
    let settings = print_config(launch, what);
    for (name, value) in &launch.env {
        let Some(key) = name.strip_prefix("CLACK_") else { continue };
        if matches!(name.as_str(), "CLACK_CONFIG" | "CLACK_ADMIN_KEY") {
            continue;
        }
        let key = key.to_ascii_lowercase().replace('_', "-");
        let printed = settings.get(&key).unwrap_or_else(|| panic!("{what}: {name} is no setting of clack serve"));
        let flag = format!("--{key}");
        let overridden = launch.args.iter().any(|a| *a == flag || a.starts_with(&format!("{flag}=")));
        // The database's URL is printed with its password masked.
        let value = if name == "CLACK_DATABASE" { clack_server::cluster::masked(value) } else { value.clone() };
        assert!(overridden || same_value(printed, &value), "{what}: {name}={value} but the server resolves {printed}");
    }
    settings
}

/// The image: its entrypoint, environment, exposed ports and health check.
#[derive(Debug)]
struct Image {
    launch: Launch,
    exposed: BTreeSet<u16>,
    healthcheck: Vec<String>,
    user: String,
    base: String,
}

fn json_array(text: &str) -> Vec<String> {
    // A JSON array of strings is also a TOML array.
    let table: toml::Table = toml::from_str(&format!("v = {text}")).expect("an exec-form array");
    table["v"].as_array().expect("array").iter().map(|v| v.as_str().expect("a string").to_owned()).collect()
}

fn image() -> Image {
    let text = read(&deploy().join("Dockerfile")).replace("\\\n", " ");
    let mut image = Image {
        launch: Launch::default(),
        exposed: BTreeSet::new(),
        healthcheck: Vec::new(),
        user: String::new(),
        base: String::new(),
    };
    let mut entrypoint = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.starts_with('#')) {
        let (instruction, rest) = line.split_once(' ').unwrap_or((line, ""));
        match instruction {
            "FROM" if image.base.is_empty() => image.base = rest.split_whitespace().next().unwrap_or("").to_owned(),
            "ENV" => {
                for pair in rest.split_whitespace() {
                    let (k, v) = pair.split_once('=').expect("ENV in KEY=VALUE form");
                    image.launch.env.insert(k.to_owned(), v.to_owned());
                }
            }
            "EXPOSE" => image.exposed.extend(rest.split_whitespace().map(|p| p.parse::<u16>().expect("a port"))),
            "USER" => image.user = rest.trim().to_owned(),
            "ENTRYPOINT" => entrypoint = json_array(rest),
            "HEALTHCHECK" => {
                let (_, command) = rest.split_once("CMD ").expect("HEALTHCHECK ... CMD [...]");
                image.healthcheck = json_array(command.trim());
            }
            _ => {}
        }
    }
    assert_eq!(entrypoint, ["clack", "serve"], "the image runs clack serve");
    image
}

#[test]
fn the_image_is_pinned_runs_as_a_user_and_exposes_its_ports() {
    let image = image();
    let (_, tag) = image.base.split_once(':').expect("the build image has a tag");
    let version = tag.split('-').next().unwrap_or("");
    assert_eq!(version.split('.').count(), 3, "the toolchain is pinned to an exact release: {}", image.base);
    assert!(
        !image.user.is_empty() && !image.user.starts_with("root") && !image.user.starts_with("0"),
        "{}",
        image.user
    );
    let settings = check_launch(&image.launch, "Dockerfile");
    let grpc = port_of(&settings, "addr", "Dockerfile");
    let metrics = port_of(&settings, "metrics-addr", "Dockerfile");
    assert_eq!(image.exposed, BTreeSet::from([grpc, metrics]), "EXPOSE the gRPC and metrics ports");
    assert_eq!(image.healthcheck, ["clack", "health"], "the health check asks the server at CLACK_ADDR");
    let addr = settings["addr"].as_str().expect("addr");
    assert!(addr.starts_with("0.0.0.0:"), "a container listens on every interface: {addr}");
}

/// A named or numbered port of a container.
fn port_ref(value: &Yaml, ports: &BTreeMap<String, u16>, what: &str) -> u16 {
    match value {
        Yaml::Integer(n) => u16::try_from(*n).expect("a port"),
        Yaml::String(name) => *ports.get(name).unwrap_or_else(|| panic!("{what}: no container port named {name}")),
        other => panic!("{what}: a port must be a number or a name, not {other:?}"),
    }
}

/// Every clack container's pod spec in a manifest document.
fn pod_specs(doc: &Yaml) -> Vec<&Yaml> {
    match doc["kind"].as_str() {
        Some("Pod") => vec![&doc["spec"]],
        Some("StatefulSet" | "Deployment" | "DaemonSet" | "ReplicaSet" | "Job") => {
            vec![&doc["spec"]["template"]["spec"]]
        }
        _ => Vec::new(),
    }
}

fn env_of(container: &Yaml) -> BTreeMap<String, String> {
    let mut env = BTreeMap::new();
    for var in container["env"].as_vec().into_iter().flatten() {
        let name = var["name"].as_str().expect("env name").to_owned();
        // A value from a secret or config map is unknown here; any text of the right form will do
        // to check the name (the database's URL must parse).
        let elsewhere =
            if name == "CLACK_DATABASE" { "postgres://clack@from-elsewhere/clack" } else { "from-elsewhere" };
        let value = var["value"].as_str().unwrap_or(elsewhere).to_owned();
        env.insert(name, value);
    }
    env
}

fn strings(value: &Yaml) -> Vec<String> {
    value.as_vec().into_iter().flatten().map(|v| v.as_str().expect("a string").to_owned()).collect()
}

/// Checks one clack container of a manifest; returns its ports by name.
fn check_container(image: &Image, container: &Yaml, pod: &Yaml, what: &str) -> BTreeMap<String, u16> {
    assert!(container["command"].is_badvalue(), "{what}: keep the image's entrypoint (give args only)");
    let mut launch = image.launch.clone();
    launch.args = strings(&container["args"]);
    launch.env.extend(env_of(container));
    let settings = check_launch(&launch, what);
    let grpc = port_of(&settings, "addr", what);
    let metrics = port_of(&settings, "metrics-addr", what);
    let mut ports = BTreeMap::new();
    for port in container["ports"].as_vec().into_iter().flatten() {
        let number = u16::try_from(port["containerPort"].as_i64().expect("containerPort")).expect("a port");
        let name = port["name"].as_str().unwrap_or_default().to_owned();
        let expected = match name.as_str() {
            "grpc" => grpc,
            "metrics" => metrics,
            other => panic!("{what}: port {other:?} is neither grpc nor metrics"),
        };
        assert_eq!(number, expected, "{what}: the {name} port is not the one the server listens on");
        ports.insert(name, number);
    }
    assert!(ports.contains_key("grpc"), "{what}: no grpc port");
    for probe in ["readinessProbe", "livenessProbe", "startupProbe"] {
        let probe_spec = &container[probe];
        if probe_spec.is_badvalue() {
            continue;
        }
        let place = format!("{what} {probe}");
        if !probe_spec["grpc"].is_badvalue() {
            assert_eq!(
                port_ref(&probe_spec["grpc"]["port"], &ports, &place),
                grpc,
                "{place}: gRPC health is on the gRPC port"
            );
        } else if !probe_spec["httpGet"].is_badvalue() {
            assert_eq!(
                port_ref(&probe_spec["httpGet"]["port"], &ports, &place),
                metrics,
                "{place}: HTTP is the metrics port"
            );
            assert_eq!(probe_spec["httpGet"]["path"].as_str(), Some("/metrics"), "{place}: only /metrics answers");
        } else {
            let port = port_ref(&probe_spec["tcpSocket"]["port"], &ports, &place);
            assert!(port == grpc || port == metrics, "{place}: probes a port the server does not open");
        }
    }
    let annotations = &pod["metadata"]["annotations"];
    if let Some(port) = annotations["prometheus.io/port"].as_str() {
        assert_eq!(port.parse::<u16>().ok(), Some(metrics), "{what}: prometheus.io/port is not the metrics port");
    }
    ports
}

#[test]
fn every_kubernetes_manifest_agrees_with_the_binary() {
    let image = image();
    let mut files: Vec<PathBuf> = std::fs::read_dir(deploy().join("kubernetes"))
        .expect("deploy/kubernetes")
        .map(|entry| entry.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no manifests");
    let mut containers = 0;
    for file in files {
        let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let docs = YamlLoader::load_from_str(&read(&file)).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Ports of the clack containers in this file, by name, for its Services.
        let mut ports = BTreeMap::new();
        for doc in &docs {
            for spec in pod_specs(doc) {
                for container in spec["containers"].as_vec().into_iter().flatten() {
                    let is_clack = container["image"].as_str().is_some_and(|i| i.starts_with("clack"));
                    if is_clack {
                        let what = format!("{name} {}", container["name"].as_str().unwrap_or("?"));
                        ports.extend(check_container(&image, container, &doc["spec"]["template"], &what));
                        containers += 1;
                    }
                }
            }
        }
        // Services of files without a clack container (the database's) are not the server's.
        for doc in docs.iter().filter(|d| d["kind"].as_str() == Some("Service") && !ports.is_empty()) {
            for port in doc["spec"]["ports"].as_vec().into_iter().flatten() {
                let what = format!("{name} Service {}", doc["metadata"]["name"].as_str().unwrap_or("?"));
                let target = if port["targetPort"].is_badvalue() { &port["port"] } else { &port["targetPort"] };
                let number = port_ref(target, &ports, &what);
                assert!(
                    ports.values().any(|p| *p == number),
                    "{what}: targets port {number}, which no clack container opens"
                );
            }
        }
    }
    assert!(containers > 0, "no clack container in deploy/kubernetes");
}

#[test]
fn the_compose_file_agrees_with_the_binary() {
    let image = image();
    let docs = YamlLoader::load_from_str(&read(&deploy().join("compose.yaml"))).expect("compose.yaml is YAML");
    let services = docs[0]["services"].as_hash().expect("services");
    let mut shards = 0;
    for (name, service) in services {
        let name = name.as_str().expect("a service name");
        let is_clack =
            service["image"].as_str().is_some_and(|i| i.starts_with("clack")) || !service["build"].is_badvalue();
        if !is_clack {
            continue;
        }
        let what = format!("compose {name}");
        let mut launch = image.launch.clone();
        launch.args = strings(&service["command"]);
        for (k, v) in service["environment"].as_hash().into_iter().flatten() {
            let value = v.as_str().map(str::to_owned).or_else(|| v.as_i64().map(|n| n.to_string())).expect("a value");
            launch.env.insert(k.as_str().expect("a name").to_owned(), value);
        }
        let settings = check_launch(&launch, &what);
        let opened = [port_of(&settings, "addr", &what), port_of(&settings, "metrics-addr", &what)];
        for mapping in strings(&service["ports"]) {
            let container = mapping.rsplit(':').next().and_then(|p| p.parse::<u16>().ok()).expect("host:container");
            assert!(opened.contains(&container), "{what}: publishes {container}, which the server does not open");
        }
        shards += 1;
    }
    assert_eq!(shards, 3, "the compose file runs three shards");
}

#[test]
fn the_sample_configuration_lists_every_key_with_its_default() {
    let path = deploy().join("clack.toml.sample");
    let text = read(&path);
    let sample: toml::Table = toml::from_str(&text).expect("the sample is TOML");
    let defaults = print_config(&Launch::default(), "defaults");
    let keys = |t: &toml::Table| t.keys().cloned().collect::<BTreeSet<_>>();
    assert_eq!(keys(&sample), keys(&defaults), "the sample's keys are the settings that have a default");
    for (key, value) in &defaults {
        assert_eq!(&sample[key], value, "the sample's {key} is not the default");
    }
    assert!(text.contains("# admin-key-file = "), "the sample shows the one key without a default");
    let launch = Launch { args: vec!["--config".into(), path.display().to_string()], env: BTreeMap::new() };
    assert_eq!(print_config(&launch, "the sample"), defaults, "the server reads the sample as the defaults");
}

#[test]
fn a_flag_beats_the_environment_which_beats_the_file() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("clack.toml");
    std::fs::write(&file, "max-live-games = 7\ngrace-secs = 1.5\nmode = \"closed\"\n").expect("write");
    let config = vec!["--config".to_owned(), file.display().to_string()];
    let env =
        BTreeMap::from([("CLACK_MAX_LIVE_GAMES".to_owned(), "8".to_owned()), ("CLACK_MODE".into(), "open".into())]);
    let from_env = print_config(&Launch { args: config.clone(), env: env.clone() }, "env over file");
    assert_eq!(from_env["max-live-games"].as_integer(), Some(8));
    assert_eq!(from_env["mode"].as_str(), Some("open"));
    assert_eq!(from_env["grace-secs"].as_float(), Some(1.5), "the file beats the default");
    let args = [config.clone(), vec!["--max-live-games".into(), "9".into()]].concat();
    let from_flag = print_config(&Launch { args, env }, "flag over env");
    assert_eq!(from_flag["max-live-games"].as_integer(), Some(9));

    std::fs::write(&file, "max-live-games = 7\nrequest-timout-ms = 5\n").expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["serve", "--print-config"])
        .env_clear()
        .env("CLACK_CONFIG", &file)
        .output()
        .expect("clack runs");
    assert!(!output.status.success(), "an unknown key is refused");
    assert!(String::from_utf8_lossy(&output.stderr).contains("request-timout-ms"), "the error names the key");
}
