//! `--camera eye=X,Y,Z,target=X,Y,Z,fov=DEG`: a fixed perspective view for review renders, in
//! the file's world units with +Y up, parsed without the renderer (so the command-line-only
//! build checks it too).

/// A fixed camera as `--camera` gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraSpec {
    /// Where the camera is.
    pub eye: [f32; 3],
    /// The point it looks at.
    pub target: [f32; 3],
    /// Vertical field of view, degrees.
    pub fov: f32,
}

/// What `--camera` looks like, for messages.
const SHAPE: &str = "eye=X,Y,Z,target=X,Y,Z,fov=DEG";

/// Parses `eye=X,Y,Z,target=X,Y,Z,fov=DEG` (the three parts in any order, `fov` optional:
/// 50°, three.js's default).
pub fn parse_camera(text: &str) -> Result<CameraSpec, String> {
    let mut eye = None;
    let mut target = None;
    let mut fov = None;
    let mut key: Option<&str> = None;
    let mut numbers: Vec<f32> = Vec::new();
    let mut finish = |key: Option<&str>, numbers: &mut Vec<f32>| -> Result<(), String> {
        let Some(key) = key else {
            return Ok(());
        };
        let values = std::mem::take(numbers);
        let slot = match key {
            "eye" => &mut eye,
            "target" => &mut target,
            _ => {
                if values.len() != 1 {
                    return Err(format!("{text:?}: fov takes one number of degrees"));
                }
                fov = Some(values[0]);
                return Ok(());
            }
        };
        if values.len() != 3 {
            return Err(format!("{text:?}: {key} takes three numbers X,Y,Z"));
        }
        *slot = Some([values[0], values[1], values[2]]);
        Ok(())
    };
    for part in text.split(',') {
        let part = part.trim();
        let value = match part.split_once('=') {
            Some((k, v)) => {
                finish(key, &mut numbers)?;
                let k = k.trim();
                if !matches!(k, "eye" | "target" | "fov") {
                    return Err(format!("{text:?}: unknown part {k:?} (expected {SHAPE})"));
                }
                key = Some(match k {
                    "eye" => "eye",
                    "target" => "target",
                    _ => "fov",
                });
                v
            }
            None if key.is_some() => part,
            None => return Err(format!("{text:?} is not a camera like {SHAPE}")),
        };
        let n: f32 = value
            .trim()
            .parse()
            .ok()
            .filter(|n: &f32| n.is_finite())
            .ok_or_else(|| format!("{text:?}: {value:?} is not a number"))?;
        numbers.push(n);
    }
    finish(key, &mut numbers)?;
    let (Some(eye), Some(target)) = (eye, target) else {
        return Err(format!("{text:?}: give both eye and target ({SHAPE})"));
    };
    let fov = fov.unwrap_or(50.0);
    if !(fov > 0.0 && fov < 180.0) {
        return Err(format!("{text:?}: fov must be between 0 and 180 degrees"));
    }
    Ok(CameraSpec { eye, target, fov })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cameras_parse_and_bad_ones_say_why() {
        let c = parse_camera("eye=0,1.5,4,target=0,1,0,fov=40").unwrap();
        assert_eq!(c.eye, [0.0, 1.5, 4.0]);
        assert_eq!(c.target, [0.0, 1.0, 0.0]);
        assert_eq!(c.fov, 40.0);
        let c = parse_camera("target=1,2,3, eye=-4,5,6").unwrap();
        assert_eq!((c.eye, c.fov), ([-4.0, 5.0, 6.0], 50.0));
        for (text, why) in [
            ("eye=0,1,target=0,0,0", "eye takes three numbers"),
            ("eye=0,1,2", "give both eye and target"),
            ("eye=0,1,2,target=0,0,0,fov=200", "fov must be between"),
            ("eye=0,1,2,target=0,0,x", "\"x\" is not a number"),
            ("pos=0,1,2", "unknown part \"pos\""),
            ("1,2,3", "is not a camera like"),
            ("eye=0,1,2,target=0,0,0,fov=1,2", "fov takes one number"),
        ] {
            let e = parse_camera(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
