using System;
using System.Collections.Generic;
using Microsoft.CodeAnalysis.Text;

namespace CoarseTimers.Analyzers.Baseline;

/// <summary>
/// A parsed <c>CoarseTimers.baseline</c>: one line per key, tab-separated <c>rule, count, file, member</c>, where
/// <c>file</c> is relative to the baseline file's folder with '/' separators and <c>member</c> is a
/// <see cref="BaselineMember"/> ID. Lines starting with '#' and malformed lines are ignored: a hand-edited file never
/// makes the build throw. Format and workflow: docs/baseline.md.
/// </summary>
internal sealed class BaselineFile
{
    public const string FileName = "CoarseTimers.baseline";

    private readonly Dictionary<string, int> _allowed;

    private BaselineFile(string folder, Dictionary<string, int> allowed)
    {
        Folder = folder;
        _allowed = allowed;
    }

    /// <summary>The baseline file's folder with '/' separators and a trailing '/': file keys are relative to it.</summary>
    public string Folder { get; }

    public int Count => _allowed.Count;

    public static BaselineFile Parse(string path, SourceText text)
    {
        var allowed = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var line in text.Lines)
        {
            var content = line.ToString();
            if (content.Length == 0 || content[0] == '#')
            {
                continue;
            }

            // Trailing whitespace (a tab or spaces left by a hand edit) is not a fifth field.
            var fields = content.TrimEnd().Split('\t');
            if (fields.Length == 4 && int.TryParse(fields[1], out var count) && count > 0)
            {
                var key = Key(fields[0].Trim(), fields[2].Trim(), fields[3].Trim());
                allowed[key] = allowed.TryGetValue(key, out var existing) ? existing + count : count;
            }
        }

        return new BaselineFile(FolderOf(path), allowed);
    }

    /// <summary>How many sites of <paramref name="rule"/> the baseline accepts in the member of that file (0 if none).</summary>
    public int Allowed(string rule, string relativeFile, string member) =>
        _allowed.TryGetValue(Key(rule, relativeFile, member), out var count) ? count : 0;

    /// <summary><paramref name="filePath"/> relative to <see cref="Folder"/>, or null when it is not under it.</summary>
    public string? Relative(string filePath)
    {
        var normalized = filePath.Replace('\\', '/');
        return normalized.StartsWith(Folder, StringComparison.Ordinal) ? normalized.Substring(Folder.Length) : null;
    }

    private static string Key(string rule, string file, string member) => rule + "\t" + file + "\t" + member;

    private static string FolderOf(string path)
    {
        var normalized = path.Replace('\\', '/');
        var slash = normalized.LastIndexOf('/');
        return slash < 0 ? string.Empty : normalized.Substring(0, slash + 1);
    }
}
