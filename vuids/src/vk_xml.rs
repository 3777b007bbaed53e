//! Reading the Vulkan registry `vk.xml` (`vuids/registry/vk.xml`) by plain text search, which
//! its regular layout allows (one element per tag, attributes in double quotes): what the
//! generated dispatch tables and the registry tests need of it.

use std::collections::BTreeMap;

/// The path of the committed registry.
pub const VK_XML_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/registry/vk.xml");

/// The committed registry's text.
///
/// # Panics
/// When `vuids/registry/vk.xml` cannot be read.
pub fn vk_xml() -> String {
    std::fs::read_to_string(VK_XML_PATH).expect("vuids/registry/vk.xml")
}

/// The value of attribute `name` in the tag text `tag` (its first occurrence).
pub fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// The text of every element that starts with `open` up to its first `close`
/// (`"<extension name="`, `"</extension>"`).
///
/// # Panics
/// When an element is not closed.
pub fn blocks<'a>(xml: &'a str, open: &'a str, close: &'a str) -> impl Iterator<Item = &'a str> {
    xml.match_indices(open).map(move |(at, _)| {
        let end = xml[at..].find(close).expect("a closed element");
        &xml[at..at + end]
    })
}

/// Where a command belongs, by its first parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandLevel {
    /// A global command or one of a `VkInstance` or `VkPhysicalDevice`.
    Instance,
    /// A command of a `VkDevice`, `VkQueue` or `VkCommandBuffer`.
    Device,
}

/// What the registry says of one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandInfo {
    /// The command it is an alias of, or itself: its `PFN_` type is this one's.
    pub defined_as: String,
    /// Instance or device level.
    pub level: CommandLevel,
    /// The core version that has it (`"1.1"`), if any.
    pub core: Option<String>,
    /// The (supported) extensions that add it.
    pub extensions: Vec<String>,
}

impl CommandInfo {
    /// Its function-pointer type's name, `PFN_vkGetMemoryFdKHR`.
    pub fn pfn(&self) -> String {
        format!("PFN_{}", self.defined_as)
    }
}

/// The commands, aliases, versions and extensions of a registry.
pub struct Registry {
    /// Each defined command's level, by name.
    levels: BTreeMap<String, CommandLevel>,
    /// Each alias's command.
    aliases: BTreeMap<String, String>,
    /// The core version of each command a `vulkan` feature requires.
    cores: BTreeMap<String, String>,
    /// The supported extensions requiring each command.
    extensions: BTreeMap<String, Vec<String>>,
    /// Each supported extension's `type` (`device`, `instance`).
    extension_types: BTreeMap<String, String>,
}

/// Whether a comma-separated `api` attribute names plain Vulkan (absent: every API).
fn is_vulkan(api: Option<&str>) -> bool {
    api.map_or(true, |api| api.split(',').any(|a| a == "vulkan"))
}

/// The command names the `<require>` elements of a feature or extension list (not those of its
/// `<deprecate>` or `<remove>` elements).
fn required_commands(element: &str) -> impl Iterator<Item = &str> {
    element
        .match_indices("<require")
        .filter_map(|(at, _)| {
            let rest = &element[at..];
            let tag_end = rest.find('>')?;
            let end = rest.find("</require>")?;
            (!rest[..tag_end].ends_with('/')).then(|| &rest[..end])
        })
        .flat_map(|require| {
            require
                .match_indices("<command name=\"")
                .filter_map(|(at, _)| attribute(&require[at..], "name"))
        })
}

impl Registry {
    /// Reads the registry text `xml`.
    ///
    /// # Panics
    /// When it has no `<commands>` section.
    pub fn parse(xml: &str) -> Registry {
        let start = xml.find("<commands").expect("a <commands> section");
        let end = start + xml[start..].find("</commands>").expect("</commands>");
        let commands = &xml[start..end];
        let mut levels = BTreeMap::new();
        let mut aliases = BTreeMap::new();
        for (at, _) in commands.match_indices("<command") {
            let rest = &commands[at..];
            let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
            if tag.starts_with("<commands") || !is_vulkan(attribute(tag, "api")) {
                continue;
            }
            if let (Some(name), Some(alias)) = (attribute(tag, "name"), attribute(tag, "alias")) {
                aliases.insert(name.to_owned(), alias.to_owned());
                continue;
            }
            let body = &rest[..rest.find("</command>").unwrap_or(rest.len())];
            let name = between(body, "<name>", "</name>");
            let first_param = body.find("<param").map(|p| &body[p..]);
            let first_type = first_param.map(|p| between(p, "<type>", "</type>"));
            let level = match first_type {
                Some("VkDevice" | "VkQueue" | "VkCommandBuffer") => CommandLevel::Device,
                _ => CommandLevel::Instance,
            };
            levels.entry(name.to_owned()).or_insert(level);
        }
        let mut cores = BTreeMap::new();
        for feature in blocks(xml, "<feature api=\"", "</feature>") {
            let tag = &feature[..feature.find('>').unwrap_or(feature.len())];
            if !is_vulkan(attribute(tag, "api")) {
                continue;
            }
            let number = attribute(tag, "number").unwrap_or_default();
            for command in required_commands(feature) {
                cores
                    .entry(command.to_owned())
                    .or_insert_with(|| number.to_owned());
            }
        }
        let mut extensions: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut extension_types = BTreeMap::new();
        for (at, _) in xml.match_indices("<extension name=\"") {
            let rest = &xml[at..];
            let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
            let supported = attribute(tag, "supported").unwrap_or_default();
            if tag.ends_with('/') || !is_vulkan(Some(supported)) {
                continue;
            }
            let name = attribute(tag, "name").unwrap_or_default();
            let body = &rest[..rest.find("</extension>").expect("</extension>")];
            if let Some(kind) = attribute(tag, "type") {
                extension_types.insert(name.to_owned(), kind.to_owned());
            }
            for command in required_commands(body) {
                let list = extensions.entry(command.to_owned()).or_default();
                if !list.iter().any(|e| e == name) {
                    list.push(name.to_owned());
                }
            }
        }
        Registry {
            levels,
            aliases,
            cores,
            extensions,
            extension_types,
        }
    }

    /// What the registry says of the command `name`, if it has it.
    pub fn command(&self, name: &str) -> Option<CommandInfo> {
        let defined_as = self.aliases.get(name).map_or(name, String::as_str);
        Some(CommandInfo {
            defined_as: defined_as.to_owned(),
            level: *self.levels.get(defined_as)?,
            core: self.cores.get(name).cloned(),
            extensions: self.extensions.get(name).cloned().unwrap_or_default(),
        })
    }

    /// The `type` of the supported extension `name` (`device`, `instance`), if it has it.
    pub fn extension_type(&self, name: &str) -> Option<&str> {
        self.extension_types.get(name).map(String::as_str)
    }
}

/// The text between the first `open` and the `close` after it (empty when absent).
fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let Some(at) = text.find(open) else {
        return "";
    };
    let rest = &text[at + open.len()..];
    &rest[..rest.find(close).unwrap_or(0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_levels_aliases_versions_and_extensions() {
        let registry = Registry::parse(&vk_xml());
        let fd = registry.command("vkGetMemoryFdKHR").unwrap();
        assert_eq!(fd.level, CommandLevel::Device);
        assert_eq!(fd.pfn(), "PFN_vkGetMemoryFdKHR");
        assert_eq!(fd.core, None);
        assert_eq!(fd.extensions, ["VK_KHR_external_memory_fd"]);
        let bind = registry.command("vkBindBufferMemory2KHR").unwrap();
        assert_eq!(bind.pfn(), "PFN_vkBindBufferMemory2");
        assert_eq!(bind.extensions, ["VK_KHR_bind_memory2"]);
        assert_eq!(
            registry
                .command("vkBindBufferMemory2")
                .unwrap()
                .core
                .as_deref(),
            Some("1.1")
        );
        let create = registry.command("vkCreateInstance").unwrap();
        assert_eq!(create.level, CommandLevel::Instance);
        assert_eq!(create.core.as_deref(), Some("1.0"));
        assert_eq!(
            registry.command("vkCreateDevice").unwrap().level,
            CommandLevel::Instance
        );
        assert_eq!(registry.extension_type("VK_KHR_swapchain"), Some("device"));
        assert_eq!(
            registry.extension_type("VK_EXT_debug_utils"),
            Some("instance")
        );
        let memory_properties = registry
            .command("vkGetPhysicalDeviceMemoryProperties")
            .unwrap();
        assert!(
            memory_properties.extensions.is_empty(),
            "deprecations are not requirements"
        );
        assert!(registry.command("vkNoSuchCommand").is_none());
    }
}
