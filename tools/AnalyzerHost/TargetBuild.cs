using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;

namespace CoarseTimers.AnalyzerHost;

/// <summary>
/// One target framework a project builds for, as the preprocessor symbols `dotnet build` defines for it (Release). A
/// multi-targeting project compiles its sources once per target, and the analyzers report on each; code under
/// <c>#if NETFRAMEWORK</c> or <c>#if !NET6_0_OR_GREATER</c> is built (and flagged) only by the older targets. The
/// net8.0 build stands for every net5.0+ target; each older target family the project lists (.NET Framework,
/// .NET Standard, .NET Core before 5) adds one build of its own, at most <see cref="MaxOlderBuilds"/>. Only literal
/// <c>TargetFramework(s)</c> and <c>DefineConstants</c> are read (in the project or a <c>Directory.Build.props</c>
/// above it): unconditional ones apply to every build, those under <c>'$(TargetFramework)' == 'x'</c> to x's.
/// </summary>
internal sealed record TargetBuild(string Framework, ImmutableArray<string> Symbols)
{
    /// <summary>Older-target builds per project beyond net8.0: each is a whole extra compilation.</summary>
    public const int MaxOlderBuilds = 2;

    private static readonly Regex s_frameworks = new("<TargetFrameworks?>\\s*([^<$]+?)\\s*</TargetFrameworks?>", RegexOptions.IgnoreCase);
    private static readonly Regex s_propertyGroup = new("<PropertyGroup(?<attrs>[^>]*)>(?<body>.*?)</PropertyGroup>", RegexOptions.IgnoreCase | RegexOptions.Singleline);
    private static readonly Regex s_defineConstants = new("<DefineConstants(?<attrs>[^>]*)>(?<value>[^<]*)</DefineConstants>", RegexOptions.IgnoreCase);
    private static readonly Regex s_frameworkCondition = new("'\\$\\(TargetFramework\\)'\\s*==\\s*'(?<tfm>[^']+)'", RegexOptions.IgnoreCase);
    private static readonly Regex s_modern = new("^net(?<major>\\d+)\\.(?<minor>\\d+)", RegexOptions.IgnoreCase);
    private static readonly Regex s_framework = new("^net(?<version>\\d{2,3})$", RegexOptions.IgnoreCase);
    private static readonly Regex s_standard = new("^netstandard(?<major>\\d)\\.(?<minor>\\d)$", RegexOptions.IgnoreCase);
    private static readonly Regex s_oldCore = new("^netcoreapp(?<major>\\d)\\.(?<minor>\\d)$", RegexOptions.IgnoreCase);

    private static readonly string[] s_common = { "TRACE", "RELEASE" };

    private static readonly string[] s_net8Symbols =
    {
        "NET", "NETCOREAPP", "NET8_0", "NET8_0_OR_GREATER", "NET7_0_OR_GREATER", "NET6_0_OR_GREATER",
        "NET5_0_OR_GREATER", "NETCOREAPP3_1_OR_GREATER", "NETCOREAPP3_0_OR_GREATER", "NETCOREAPP2_2_OR_GREATER",
        "NETCOREAPP2_1_OR_GREATER", "NETCOREAPP2_0_OR_GREATER", "NETCOREAPP1_1_OR_GREATER", "NETCOREAPP1_0_OR_GREATER",
    };

    private static readonly string[] s_frameworkVersions = { "20", "30", "35", "40", "45", "451", "452", "46", "461", "462", "47", "471", "472", "48", "481" };
    private static readonly string[] s_standardVersions = { "1_0", "1_1", "1_2", "1_3", "1_4", "1_5", "1_6", "2_0", "2_1" };
    private static readonly string[] s_oldCoreVersions = { "1_0", "1_1", "2_0", "2_1", "2_2", "3_0", "3_1" };

    /// <summary>The net8.0 build alone (a loose folder, or a project that lists no older target).</summary>
    public static TargetBuild Net8(IEnumerable<string> extraSymbols) =>
        new("net8.0", s_common.Concat(s_net8Symbols).Concat(extraSymbols).Distinct(StringComparer.Ordinal).ToImmutableArray());

    /// <summary>The builds of the project whose file text is <paramref name="projectText"/> in <paramref name="folder"/>.</summary>
    public static ImmutableArray<TargetBuild> Of(string projectText, string folder, string? stopAt)
    {
        var texts = new List<string> { projectText };
        texts.AddRange(PropsAbove(folder, stopAt));
        var frameworks = texts.Select(t => s_frameworks.Match(t)).FirstOrDefault(m => m.Success)?.Groups[1].Value
            .Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) ?? Array.Empty<string>();

        var (always, perFramework) = DefinedConstants(texts);
        var builds = ImmutableArray.CreateBuilder<TargetBuild>();
        builds.Add(Net8(always.Concat(perFramework.TryGetValue("net8.0", out var net8) ? net8 : Enumerable.Empty<string>())));
        var families = new HashSet<string>(StringComparer.Ordinal);
        foreach (var tfm in frameworks)
        {
            if (builds.Count > MaxOlderBuilds || s_modern.IsMatch(tfm) && !s_oldCore.IsMatch(tfm))
            {
                continue;
            }

            var symbols = SymbolsOf(tfm, out var family);
            if (symbols is null || !families.Add(family))
            {
                continue;
            }

            var extra = perFramework.TryGetValue(tfm.ToLowerInvariant(), out var mine) ? mine : Enumerable.Empty<string>();
            builds.Add(new TargetBuild(tfm, s_common.Concat(symbols).Concat(always).Concat(extra).Distinct(StringComparer.Ordinal).ToImmutableArray()));
        }

        return builds.ToImmutable();
    }

    // What the SDK defines for an older target framework: the family symbol, the version symbol and every
    // _OR_GREATER symbol up to it; null for a target this table does not know (it is then not built).
    private static IEnumerable<string>? SymbolsOf(string tfm, out string family)
    {
        if (s_framework.Match(tfm) is { Success: true } f)
        {
            family = "netframework";
            var version = f.Groups["version"].Value;
            var index = Array.IndexOf(s_frameworkVersions, version);
            return index < 0 ? null : new[] { "NETFRAMEWORK", "NET" + version }.Concat(s_frameworkVersions.Take(index + 1).Select(v => $"NET{v}_OR_GREATER"));
        }

        if (s_standard.Match(tfm) is { Success: true } s)
        {
            family = "netstandard";
            var version = $"{s.Groups["major"].Value}_{s.Groups["minor"].Value}";
            var index = Array.IndexOf(s_standardVersions, version);
            return index < 0 ? null : new[] { "NETSTANDARD", "NETSTANDARD" + version }.Concat(s_standardVersions.Take(index + 1).Select(v => $"NETSTANDARD{v}_OR_GREATER"));
        }

        if (s_oldCore.Match(tfm) is { Success: true } c)
        {
            family = "netcoreapp";
            var version = $"{c.Groups["major"].Value}_{c.Groups["minor"].Value}";
            var index = Array.IndexOf(s_oldCoreVersions, version);
            return index < 0 ? null : new[] { "NETCOREAPP", "NETCOREAPP" + version }.Concat(s_oldCoreVersions.Take(index + 1).Select(v => $"NETCOREAPP{v}_OR_GREATER"));
        }

        family = string.Empty;
        return null;
    }

    // Literal DefineConstants: those of property groups with no condition, and those under one target framework.
    private static (List<string> Always, Dictionary<string, List<string>> PerFramework) DefinedConstants(IEnumerable<string> texts)
    {
        var always = new List<string>();
        var perFramework = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (var text in texts)
        {
            foreach (Match group in s_propertyGroup.Matches(text))
            {
                var groupFramework = s_frameworkCondition.Match(group.Groups["attrs"].Value);
                var groupConditional = group.Groups["attrs"].Value.Contains("Condition", StringComparison.OrdinalIgnoreCase);
                foreach (Match define in s_defineConstants.Matches(group.Groups["body"].Value))
                {
                    var elementFramework = s_frameworkCondition.Match(define.Groups["attrs"].Value);
                    var elementConditional = define.Groups["attrs"].Value.Contains("Condition", StringComparison.OrdinalIgnoreCase);
                    var framework = elementFramework.Success ? elementFramework : groupFramework;
                    List<string> into;
                    if (framework.Success)
                    {
                        var key = framework.Groups["tfm"].Value.ToLowerInvariant();
                        if (!perFramework.TryGetValue(key, out into!))
                        {
                            into = perFramework[key] = new List<string>();
                        }
                    }
                    else if (!groupConditional && !elementConditional)
                    {
                        into = always;
                    }
                    else
                    {
                        continue; // some other condition (Debug, an OS, a property): not evaluated
                    }

                    into.AddRange(define.Groups["value"].Value.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                        .Where(v => !v.Contains("$(", StringComparison.Ordinal)));
                }
            }
        }

        return (always, perFramework);
    }

    private static IEnumerable<string> PropsAbove(string folder, string? stopAt)
    {
        for (var dir = folder; dir is not null; dir = Path.GetDirectoryName(dir))
        {
            var props = Path.Combine(dir, "Directory.Build.props");
            if (File.Exists(props))
            {
                yield return File.ReadAllText(props);
            }

            if (stopAt is null || string.Equals(Path.GetFullPath(dir), Path.GetFullPath(stopAt), StringComparison.Ordinal))
            {
                yield break;
            }
        }
    }
}
