using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;

namespace CoarseTimers.AnalyzerHost;

/// <summary>
/// One compilation's worth of sources, taken from a folder as it is: the <c>.cs</c> files under the folder of a
/// <c>.csproj</c> (without <c>bin</c>/<c>obj</c> and without sub-folders that hold a project of their own). From the
/// project file only what changes binding or the analyzers' view is read: the assembly name (test-project detection),
/// <c>OutputType</c> (entry points), <c>ImplicitUsings</c> (there or in a <c>Directory.Build.props</c> above it), the
/// <c>&lt;Using Include="..." /&gt;</c> items that become global usings (<see cref="GlobalUsings"/>) and the
/// target frameworks and literal <c>DefineConstants</c> (<see cref="TargetBuild"/>: one compilation per target family).
/// Package and project references are not resolved: each compilation sees the net8.0 reference assemblies only.
/// </summary>
internal sealed record SourceProject(string Folder, string AssemblyName, bool IsExe, bool ImplicitUsings, ImmutableArray<string> GlobalUsings, ImmutableArray<string> Files, ImmutableArray<TargetBuild> Targets)
{
    private static readonly Regex s_assemblyName = new("<AssemblyName>\\s*([^<$]+?)\\s*</AssemblyName>", RegexOptions.IgnoreCase);
    private static readonly Regex s_exe = new("<OutputType>\\s*(Exe|WinExe)\\s*</OutputType>", RegexOptions.IgnoreCase);
    private static readonly Regex s_implicitUsings = new("<ImplicitUsings>\\s*(enable|true)\\s*</ImplicitUsings>", RegexOptions.IgnoreCase);
    private static readonly Regex s_import = new("<Import\\s+Project\\s*=\\s*\"([^\"$]+)\"", RegexOptions.IgnoreCase);
    private static readonly Regex s_usingItem = new("<Using\\s+(Include|Remove)\\s*=\\s*\"([^\"$@%]+)\"([^>]*)>", RegexOptions.IgnoreCase);
    private static readonly Regex s_alias = new("Alias\\s*=\\s*\"([^\"]+)\"", RegexOptions.IgnoreCase);
    private static readonly Regex s_static = new("Static\\s*=\\s*\"true\"", RegexOptions.IgnoreCase);
    private static readonly Regex s_noImplicitUsings = new("<ImplicitUsings>\\s*(disable|false)\\s*</ImplicitUsings>", RegexOptions.IgnoreCase);
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<string, bool> s_sharedProps = new(StringComparer.Ordinal);

    /// <summary>The project whose folder is <paramref name="folder"/>, or a loose folder named after itself.</summary>
    public static SourceProject FromFolder(string folder, string? stopAt = null)
    {
        folder = Path.GetFullPath(folder);
        var project = Directory.EnumerateFiles(folder, "*.csproj").OrderBy(p => p, StringComparer.Ordinal).FirstOrDefault();
        var text = project is null ? string.Empty : File.ReadAllText(project);
        var name = s_assemblyName.Match(text) is { Success: true } m
            ? m.Groups[1].Value
            : Path.GetFileNameWithoutExtension(project ?? folder);
        return new SourceProject(
            folder,
            name,
            s_exe.IsMatch(text),
            s_implicitUsings.IsMatch(text) || (!s_noImplicitUsings.IsMatch(text) &&
                (InheritsImplicitUsings(folder, stopAt) || SharedPropsEnableImplicitUsings(stopAt) || (project is not null && ImportsEnableImplicitUsings(project, text, depth: 0)))),
            project is null ? ImmutableArray<string>.Empty : UsingItems(project, text, folder, stopAt),
            SourcesUnder(folder).ToImmutableArray(),
            TargetBuild.Of(text, folder, stopAt));
    }

    /// <summary>The folder of the nearest project file at or above <paramref name="file"/>, up to <paramref name="root"/>.</summary>
    public static string? ProjectFolderOf(string file, string root)
    {
        root = Path.GetFullPath(root);
        for (var dir = Path.GetDirectoryName(Path.GetFullPath(file)); dir is not null && dir.StartsWith(root, StringComparison.Ordinal); dir = Path.GetDirectoryName(dir))
        {
            if (Directory.EnumerateFiles(dir, "*.csproj").Any())
            {
                return dir;
            }
        }

        return null;
    }

    private static IEnumerable<string> SourcesUnder(string folder)
    {
        var pending = new Stack<string>();
        pending.Push(folder);
        while (pending.Count > 0)
        {
            var dir = pending.Pop();
            foreach (var file in Directory.EnumerateFiles(dir, "*.cs").OrderBy(p => p, StringComparer.Ordinal))
            {
                yield return file;
            }

            foreach (var sub in Directory.EnumerateDirectories(dir))
            {
                var name = Path.GetFileName(sub);
                if (name is "bin" or "obj" || name.StartsWith('.') || Directory.EnumerateFiles(sub, "*.csproj").Any())
                {
                    continue;
                }

                pending.Push(sub);
            }
        }
    }

    /// <summary>
    /// The global using directives that the project's <c>&lt;Using&gt;</c> items make (the SDK writes them to
    /// <c>obj/*.GlobalUsings.g.cs</c>): from the nearest <c>Directory.Build.props</c> (and the ones above it that it imports
    /// with <c>GetPathOfFileAbove</c>), the files those import by literal path, then the project and its imports, in
    /// MSBuild's order, <c>Remove</c> items taking out what came before. Conditions are not evaluated.
    /// </summary>
    private static ImmutableArray<string> UsingItems(string project, string text, string folder, string? stopAt)
    {
        var items = new List<(string Include, bool Remove, string Directive)>();
        var chain = new List<string>();
        for (var dir = folder; ; dir = Path.GetDirectoryName(dir))
        {
            var props = dir is null ? null : Path.Combine(dir, "Directory.Build.props");
            if (props is not null && File.Exists(props))
            {
                chain.Add(props);
                if (!File.ReadAllText(props).Contains("GetPathOfFileAbove", StringComparison.OrdinalIgnoreCase))
                {
                    break;
                }
            }

            if (dir is null || (stopAt is not null && string.Equals(Path.GetFullPath(dir), Path.GetFullPath(stopAt), StringComparison.Ordinal)))
            {
                break;
            }
        }

        chain.Reverse();
        foreach (var props in chain)
        {
            ReadUsingItems(props, File.ReadAllText(props), items, depth: 0);
        }

        ReadUsingItems(project, text, items, depth: 0);
        var directives = new List<string>();
        foreach (var (include, remove, directive) in items)
        {
            directives.RemoveAll(d => d.EndsWith($"global::{include};", StringComparison.Ordinal));
            if (!remove && !directives.Contains(directive))
            {
                directives.Add(directive);
            }
        }

        return directives.ToImmutableArray();
    }

    private static void ReadUsingItems(string file, string text, List<(string Include, bool Remove, string Directive)> items, int depth)
    {
        if (depth > 4)
        {
            return;
        }

        foreach (Match import in s_import.Matches(text))
        {
            var target = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(file)!, import.Groups[1].Value.Replace('\\', Path.DirectorySeparatorChar)));
            if (File.Exists(target))
            {
                ReadUsingItems(target, File.ReadAllText(target), items, depth + 1);
            }
        }

        foreach (Match item in s_usingItem.Matches(text))
        {
            var name = item.Groups[2].Value.Trim();
            var attributes = item.Groups[3].Value;
            var directive = s_alias.Match(attributes) is { Success: true } alias
                ? $"global using {alias.Groups[1].Value.Trim()} = global::{name};"
                : s_static.IsMatch(attributes) ? $"global using static global::{name};" : $"global using global::{name};";
            items.Add((name, string.Equals(item.Groups[1].Value, "Remove", StringComparison.OrdinalIgnoreCase), directive));
        }
    }

    /// <summary>
    /// A shared <c>.props</c> file of the repository (imported by path, e.g. <c>build/Common.props</c>) turns implicit
    /// usings on. Imports are not evaluated, so any such file under the root counts, for projects that do not turn them off.
    /// </summary>
    private static bool SharedPropsEnableImplicitUsings(string? root) =>
        root is not null && s_sharedProps.GetOrAdd(Path.GetFullPath(root), static r => Directory
            .EnumerateFiles(r, "*.props", new EnumerationOptions { RecurseSubdirectories = true, MaxRecursionDepth = 3 })
            .Where(p => !p.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Any(p => s_implicitUsings.IsMatch(File.ReadAllText(p))));

    /// <summary>
    /// A file the project imports by a literal relative path (<c>&lt;Import Project="../Common.Properties.xml" /&gt;</c>,
    /// whatever its extension), or one that file imports, up to four levels, turns implicit usings on.
    /// </summary>
    private static bool ImportsEnableImplicitUsings(string file, string text, int depth)
    {
        if (depth > 4)
        {
            return false;
        }

        foreach (Match import in s_import.Matches(text))
        {
            var target = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(file)!, import.Groups[1].Value.Replace('\\', Path.DirectorySeparatorChar)));
            if (!File.Exists(target))
            {
                continue;
            }

            var imported = File.ReadAllText(target);
            if (s_implicitUsings.IsMatch(imported) || ImportsEnableImplicitUsings(target, imported, depth + 1))
            {
                return true;
            }
        }

        return false;
    }

    private static bool InheritsImplicitUsings(string folder, string? stopAt)
    {
        for (var dir = folder; dir is not null; dir = Path.GetDirectoryName(dir))
        {
            var props = Path.Combine(dir, "Directory.Build.props");
            if (File.Exists(props) && s_implicitUsings.IsMatch(File.ReadAllText(props)))
            {
                return true;
            }

            if (stopAt is not null && string.Equals(Path.GetFullPath(dir), Path.GetFullPath(stopAt), StringComparison.Ordinal))
            {
                break;
            }
        }

        return false;
    }
}
