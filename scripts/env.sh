# Sourced by the scripts: points the Vulkan loader at this checkout's layer and at lavapipe.
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export VK_LAYER_PATH="$repo/manifest"
export VK_INSTANCE_LAYERS=VK_LAYER_EXPORTCHECK_validation
lavapipe=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
if [ -f "$lavapipe" ]; then
    export VK_DRIVER_FILES="$lavapipe" VK_ICD_FILENAMES="$lavapipe"
fi
